import { type ActionResult, type Order } from './models';
import { normaliseOrder } from './normalise/order';
import { isObject, textField } from './normalise/read';
import { serverText } from '../util/serverText';

/**
 * What the server said when it accepted an action: often the order as it now is, sometimes a job or a plain message,
 * sometimes nothing. The caller uses the order only when its id is the one acted on.
 */
export function readActionResult(json: unknown): ActionResult {
  if (!isObject(json)) return {};
  let order: Order | undefined;
  for (const candidate of [json.order, json.data, json.server, json]) {
    try {
      if (isObject(candidate)) {
        order = normaliseOrder(candidate);
        break;
      }
    } catch {
      // Not an order: many servers answer an action with a job or a plain message.
    }
  }
  const message = textField(json, ['message', 'detail', 'status_message']);
  return { order, message: message === undefined ? undefined : serverText(message) };
}
