/** REST shape selection (docs/rest.md#the-shape-rule): deployment default, overridable per request by header. */
export type RestShape = 'current' | 'earlier';

export const SHAPE_HEADER = 'X-Sluice-Api-Shape';

export function isRestShape(value: string): value is RestShape {
  return value === 'current' || value === 'earlier';
}
