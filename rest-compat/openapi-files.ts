/** The OpenAPI files kept in docs/: path -> text, generated from the route table. */
import { SLUICE_VERSION } from '../src/model/version';
import { REST_ROUTES } from './index';
import { openApiDocument } from './openapi';
import type { RestShape } from './shape';

const SHAPES: RestShape[] = ['current', 'earlier'];

export function openApiFiles(): [string, string][] {
  return SHAPES.map((shape) => [
    `docs/openapi-${shape}.json`,
    `${JSON.stringify(openApiDocument(REST_ROUTES, shape, SLUICE_VERSION), null, 2)}\n`,
  ]);
}
