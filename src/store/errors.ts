/** A second action for an order whose first is still under way: refused before anything is sent. */
export class ActionUnderWay extends Error {
  override readonly name = 'ActionUnderWay';

  constructor(readonly orderId: string) {
    super(`An action is already under way for order ${orderId}.`);
  }
}
