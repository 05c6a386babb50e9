/** Loads every schema module and builds the executable schema. Exports nothing else. */
import { builder } from './builder';
import './scalars';
import './info';

export const schema = builder.toSchema();
