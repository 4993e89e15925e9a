import { type ActionResult, type Order } from './models';
import { normaliseOrder } from './normalise/order';
import { isObject, textField } from './normalise/read';
import { serverText } from '../util/serverText';

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
      // Many servers answer an action with a job or a plain message.
    }
  }
  const message = textField(json, ['message', 'detail', 'status_message']);
  return { order, message: message === undefined ? undefined : serverText(message) };
}
