export class ActionUnderWay extends Error {
  override readonly name = 'ActionUnderWay';

  constructor(readonly orderId: string) {
    super(`An action is already under way for order ${orderId}.`);
  }
}
