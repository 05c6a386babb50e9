/** `GET T/badge`: the passing/failing SVG of the newest finished buildset (docs/rest.md#badge). */
import { RestBadgeDocument } from '../generated/graphql';
import type { RestRoute } from '../route';
import { orNotFound } from '../wire';
import { text } from './params';

/** Builds a flat two-box badge `build | <label>` in the reference's geometry (tenths of a pixel). */
function badgeSvg(label: 'passing' | 'failing', colour: string, rightWidth: number): string {
  const leftWidth = 368;
  const width = leftWidth + rightWidth;
  const textAt = (x: number, value: string): string =>
    `<text x="${x + 10}" y="148" textLength="${value.length * 60}" fill="#000" opacity=".25">${value}</text>` +
    `<text x="${x}" y="138" textLength="${value.length * 60}">${value}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width / 10}" height="20" viewBox="0 0 ${width} 200" role="img" aria-label="build: ${label}">` +
    `<title>build: ${label}</title>` +
    `<mask id="m"><rect width="${width}" height="200" rx="30" fill="#FFF"/></mask>` +
    `<g mask="url(#m)"><rect width="${leftWidth}" height="200" fill="#555"/>` +
    `<rect width="${rightWidth}" height="200" fill="${colour}" x="${leftWidth}"/></g>` +
    `<g aria-hidden="true" fill="#fff" text-anchor="start" font-family="Verdana,DejaVu Sans,sans-serif" font-size="110">` +
    textAt(60, 'build') +
    textAt(leftWidth + 55, label) +
    `</g></svg>\n`
  );
}

export const PASSING_SVG = badgeSvg('passing', '#3C1', 518);
export const FAILING_SVG = badgeSvg('failing', '#E43', 434);

export const badgeRoute: RestRoute = {
  name: 'badge',
  pattern: 'tenant/{tenant_name}/badge',
  endpoints: {
    GET: {
      summary: 'Result badge of the newest finished buildset matching the filters',
      auth: 'public',
      operations: ['RestBadge'],
      query: {
        current: {
          project: text('Project; `*` is a wildcard'),
          pipeline: text('Pipeline; `*` is a wildcard'),
          branch: text('Branch; `*` is a wildcard'),
        },
      },
      responses: {
        current: {
          status: 200,
          contentType: 'image/svg+xml',
          description: '"build | passing" (green) or "build | failing" (red)',
        },
      },
      errors: { 400: 'Bad query parameter', 404: 'Tenant not found | No buildset found' },
      headers: { 'Cache-Control': 'no-cache' },
      handler: async (req) => {
        const data = await req.run(RestBadgeDocument, {
          tenant: req.params.tenant_name,
          project: req.query.strings('project'),
          pipeline: req.query.strings('pipeline'),
          branch: req.query.strings('branch'),
        });
        const badge = orNotFound(orNotFound(data.tenant, 'Tenant not found').badge, 'No buildset found');
        return { body: badge.passing ? PASSING_SVG : FAILING_SVG };
      },
    },
  },
};
