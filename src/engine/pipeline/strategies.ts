/** The strategy of each manager kind (docs/gating.md#managers). */
import type { ManagerKind } from '../ports/layout';
import { dependentManager } from './dependent';
import { independentManager } from './independent';
import { serialManager } from './serial';
import { supercedentManager } from './supercedent';
import type { ManagerStrategy } from './types';

const STRATEGIES: Record<ManagerKind, ManagerStrategy> = {
  independent: independentManager,
  dependent: dependentManager,
  serial: serialManager,
  supercedent: supercedentManager,
};

export function strategyFor(kind: ManagerKind): ManagerStrategy {
  return STRATEGIES[kind];
}
