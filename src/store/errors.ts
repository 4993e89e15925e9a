/** The action's guard sent nothing: a protected server's name was not typed, or the assistant asked. */
export class Declined extends Error {
  override readonly name = 'Declined';
}

export class ActionUnderWay extends Error {
  override readonly name = 'ActionUnderWay';

  constructor(readonly orderId: string) {
    super(`An action is already under way for order ${orderId}.`);
  }
}
