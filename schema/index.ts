/** Loads every schema module and builds the executable schema. Exports nothing else. */
import { builder } from './builder';
import './scalars';
import './errors';
import './info';
import './tenant';

export const schema = builder.toSchema();
