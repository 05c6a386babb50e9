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
import './deployment';
import './tenant-info';
import './pipeline';
import './project';
import './job';
import './freeze';
import './config-error';
import './semaphore';
import './launcher';
import './status';
import './queue-events';
import './autohold';
import './control';
import './subscriptions';
import './console-log';
import './launcher-runtime';

export const schema = builder.toSchema();
