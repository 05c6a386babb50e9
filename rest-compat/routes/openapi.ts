/** `GET /api/openapi.json?shape=current|earlier`: the generated OpenAPI document (Sluice-defined). */
import { RestInfoDocument } from '../generated/graphql';
import { freeObject } from '../json-schema';
import { openApiDocument } from '../openapi';
import type { RestRoute } from '../route';
import { isRestShape } from '../shape';
import { badRequest } from '../errors';
import { single } from './params';

/** The route serving the OpenAPI document of `routes` (itself included). */
export function openApiRoute(routes: () => readonly RestRoute[]): RestRoute {
  return {
    name: 'openapi',
    pattern: 'openapi.json',
    endpoints: {
      GET: {
        summary: 'This OpenAPI document, for the shape in `shape` (default: the shape of the request)',
        auth: 'none',
        operations: ['RestInfo'],
        query: { current: { shape: single('current or earlier') }, earlier: { shape: single('current or earlier') } },
        responses: {
          current: { status: 200, schema: freeObject('OpenAPI 3.1 document'), description: 'OpenAPI document' },
          earlier: { status: 200, schema: freeObject('OpenAPI 3.1 document'), description: 'OpenAPI document' },
        },
        errors: { 400: 'shape must be current or earlier' },
        handler: async (req) => {
          const requested = req.query.string('shape') ?? req.shape;
          if (!isRestShape(requested)) {
            throw badRequest('Query parameter shape must be "current" or "earlier"');
          }
          const { info } = await req.run(RestInfoDocument, {});
          return { body: openApiDocument(routes(), requested, info.version) };
        },
      },
    },
  };
}
