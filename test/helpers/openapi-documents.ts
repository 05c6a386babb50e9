/** The OpenAPI documents a running server publishes (one per REST shape) and validators of their response schemas. */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { HttpMethod } from '../../rest-compat/route';
import type { RestShape } from '../../rest-compat/shape';

type Json = Record<string, unknown>;

export const SHAPES: RestShape[] = ['current', 'earlier'];

export class OpenApiDocuments {
  private readonly documents = new Map<RestShape, Json>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  /** Fetches `/api/openapi.json` of the server at `baseUrl` for every shape. */
  async load(baseUrl: string): Promise<void> {
    for (const shape of SHAPES) {
      const res = await fetch(`${baseUrl}/api/openapi.json?shape=${shape}`);
      this.documents.set(shape, (await res.json()) as Json);
    }
  }

  /** The response schema the served OpenAPI document declares for path x method x shape. */
  responseValidator(shape: RestShape, path: string, method: HttpMethod, status: number): ValidateFunction {
    const paths = this.documents.get(shape)?.paths as Record<string, Record<string, Json>>;
    const operation = paths[path]?.[method.toLowerCase()];
    expect(operation).toBeDefined();
    const response = (operation.responses as Record<string, Json>)[String(status)];
    const content = response.content as Record<string, { schema: Json }>;
    return this.ajv.compile(content['application/json'].schema);
  }
}
