/** Loads every schema module and builds the executable schema. Exports nothing else. */
import { builder } from './builder';
import './scalars';
import './errors';
import './info';
import './tenant';
import './ref';
import './buildset';
import './build';
import './build-time';
import './system-event';
import './launcher';

export const schema = builder.toSchema();
