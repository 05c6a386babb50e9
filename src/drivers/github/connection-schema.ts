/**
 * The service configuration of a `driver: github` connection (docs/github.md#the-connection),
 * one of the connection schemas of src/config/service-sections.ts.
 */
import { z } from 'zod';

/** A GitHub (github.com or Enterprise) connection (docs/github.md#the-connection). */
export const githubConnection = z
  .object({
    driver: z.literal('github'),
    /** Host name (`github.com`, an Enterprise host) or a base URL (`https://ghe.example.com`, `http://127.0.0.1:8080`). */
    server: z.string().min(1).default('github.com'),
    /** API base URL; default `https://api.github.com` for github.com, else `<server>/api/v3`. */
    baseurl: z.string().url().optional(),
    /** Host name used in canonical project names; default the server's host name. */
    canonicalHostname: z.string().min(1).optional(),
    /** GitHub App id; with `appKeyFile` (the App's PEM private key) Sluice authenticates as the App. */
    appId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).optional(),
    appKeyFile: z.string().min(1).optional(),
    /** A personal access token (or `apiTokenFile`), used when no App is configured. */
    apiToken: z.string().min(1).optional(),
    apiTokenFile: z.string().min(1).optional(),
    /** Secret of the webhook (`X-Hub-Signature-256`); give this or `webhookTokenFile`. */
    webhookToken: z.string().min(1).optional(),
    webhookTokenFile: z.string().min(1).optional(),
    /** Seconds one API request may take. */
    requestTimeout: z.number().positive().default(30),
    /** Longest wait (seconds) for a rate limit to reset before a request fails. */
    rateLimitMaxWait: z.number().positive().default(900),
  })
  .strict()
  .superRefine((c, ctx) => {
    if ((c.appId === undefined) !== (c.appKeyFile === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give both "appId" and "appKeyFile", or neither', path: ['appId'] });
    }
    if (c.apiToken !== undefined && c.apiTokenFile !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'give at most one of "apiToken" and "apiTokenFile"',
        path: ['apiToken'],
      });
    }
    if (c.appId === undefined && c.apiToken === undefined && c.apiTokenFile === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'give a GitHub App ("appId" + "appKeyFile") or a personal token ("apiToken" or "apiTokenFile")',
        path: ['appId'],
      });
    }
    if ((c.webhookToken === undefined) === (c.webhookTokenFile === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'give exactly one of "webhookToken" and "webhookTokenFile"',
        path: ['webhookToken'],
      });
    }
  });

export type GitHubConnectionConfig = z.infer<typeof githubConnection>;
