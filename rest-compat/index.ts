/** The REST route table: one entry per documented path, in matching order. */
import type { RestRoute } from './route';
import { infoRoute } from './routes/info';

export const REST_ROUTES: RestRoute[] = [infoRoute];
