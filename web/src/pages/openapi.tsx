/**
 * `/openapi` (and `/t/{tenant}/openapi`): the REST API's OpenAPI document, read from
 * `/api/openapi.json?shape=` (docs/rest.md) and shown as a browsable list: every path and method
 * with its summary, who may call it, its parameters and its answers, each answer's JSON schema
 * on demand. The shape (`current` or `earlier`) is part of the URL.
 */
import { useState } from 'react';
import { ErrorBox, Loading, PageTitle } from '../components/common';
import { useFetched } from '../logs/fetched';
import { useUrlParams } from '../url';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: { type?: unknown; items?: { type?: unknown }; enum?: unknown[] };
}

interface Operation {
  summary?: string;
  description?: string;
  'x-sluice-auth'?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'];

async function readDocument(response: Response): Promise<OpenApiDocument> {
  const value = (await response.json()) as unknown;
  if (typeof value !== 'object' || value === null || typeof (value as OpenApiDocument).paths !== 'object') {
    throw new Error('the answer is not an OpenAPI document');
  }
  return value as OpenApiDocument;
}

function typeOf(schema: Parameter['schema']): string {
  if (schema === undefined) {
    return '';
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? '');
  if (type === 'array' && schema.items !== undefined) {
    return `list of ${String(schema.items.type ?? 'values')}`;
  }
  return Array.isArray(schema.enum) ? `${type}: ${schema.enum.join(', ')}` : type;
}

function OperationView({ path, method, operation }: { path: string; method: string; operation: Operation }) {
  const parameters = operation.parameters ?? [];
  const body = Object.entries(operation.requestBody?.content ?? {});
  return (
    <details className="operation">
      <summary>
        <span className={`method method-${method}`}>{method.toUpperCase()}</span> <code className="path">{path}</code>{' '}
        <span className="muted">{operation.summary}</span>
      </summary>
      {operation.description && <p>{operation.description}</p>}
      {operation['x-sluice-auth'] && <p className="small">Access: {operation['x-sluice-auth']}</p>}
      {parameters.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Parameter</th>
                <th scope="col">In</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {parameters.map((p) => (
                <tr key={`${p.in}/${p.name}`}>
                  <th scope="row" data-label="Parameter">
                    <code>{p.name}</code>
                    {p.required ? ' (required)' : ''}
                  </th>
                  <td data-label="In">{p.in}</td>
                  <td data-label="Type">{typeOf(p.schema)}</td>
                  <td data-label="Description">{p.description ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {body.map(([type, content]) => (
        <details key={type}>
          <summary>Request body ({type})</summary>
          <pre className="json" tabIndex={0}>
            {JSON.stringify(content.schema, null, 2)}
          </pre>
        </details>
      ))}
      <ul className="responses">
        {Object.entries(operation.responses ?? {}).map(([status, response]) => (
          <li key={status}>
            <strong>{status}</strong> {response.description}
            {Object.entries(response.content ?? {}).map(([type, content]) => (
              <details key={type}>
                <summary>{type}</summary>
                <pre className="json" tabIndex={0}>
                  {JSON.stringify(content.schema, null, 2)}
                </pre>
              </details>
            ))}
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function OpenApiPage() {
  const params = useUrlParams();
  const shape = params.get('shape') === 'earlier' ? 'earlier' : 'current';
  const openapi = useFetched(`/api/openapi.json?shape=${shape}`, readDocument);
  const [query, setQuery] = useState('');
  const needle = query.trim().toLowerCase();
  const operations =
    openapi !== undefined && 'value' in openapi
      ? Object.entries(openapi.value.paths ?? {}).flatMap(([path, item]) =>
          METHODS.filter((method) => item[method] !== undefined)
            .map((method) => ({ path, method, operation: item[method] }))
            .filter(
              ({ path: p, operation }) =>
                needle === '' ||
                p.toLowerCase().includes(needle) ||
                (operation.summary ?? '').toLowerCase().includes(needle),
            ),
        )
      : [];
  return (
    <section className="openapi-page">
      <PageTitle>REST API</PageTitle>
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Shape
          <select
            value={shape}
            onChange={(e) => params.set({ shape: e.target.value === 'current' ? null : e.target.value })}
          >
            <option value="current">current</option>
            <option value="earlier">earlier</option>
          </select>
        </label>
        <label>
          Path or summary
          <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="e.g. builds" />
        </label>
      </form>
      <p className="links">
        The document: <a href={`/api/openapi.json?shape=${shape}`}>/api/openapi.json?shape={shape}</a>
      </p>
      {openapi === undefined && <Loading what="the OpenAPI document" />}
      {openapi !== undefined && 'error' in openapi && (
        <ErrorBox error={`The OpenAPI document cannot be read: ${openapi.error}`} />
      )}
      {openapi !== undefined && 'value' in openapi && (
        <>
          <h2>
            {openapi.value.info?.title} {openapi.value.info?.version}
          </h2>
          {openapi.value.info?.description && <p className="muted">{openapi.value.info.description}</p>}
          <p className="small muted">{operations.length} operations</p>
          {operations.map(({ path, method, operation }) => (
            <OperationView key={`${method} ${path}`} path={path} method={method} operation={operation} />
          ))}
        </>
      )}
    </section>
  );
}
