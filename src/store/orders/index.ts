/**
 * The lazily loaded actions: sending one, then polling the order until it settles. `./lazy.ts` requires this module
 * when the first action is run, which only a command can do, so activation never pays for it.
 */
export { OrderActions, type Settled } from './OrderActions';
