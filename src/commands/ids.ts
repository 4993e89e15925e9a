/** Every contributed command, registered at activation (see ./index.ts). */
export const COMMAND_IDS = [
  'hostingAccount.setApiKey',
  'hostingAccount.removeApiKey',
  'hostingAccount.refresh',
  'hostingAccount.order.start',
  'hostingAccount.order.stop',
  'hostingAccount.order.restart',
  'hostingAccount.order.reinstall',
  'hostingAccount.order.showDetails',
  'hostingAccount.order.copyId',
  'hostingAccount.order.copyAddress',
  'hostingAccount.order.connectSsh',
  'hostingAccount.order.openRemoteSsh',
  'hostingAccount.invoice.open',
  'hostingAccount.showInvoices',
  'hostingAccount.showAccount',
  'hostingAccount.showForecast',
  'hostingAccount.openApiKeysPage',
  'hostingAccount.showLog',
  'hostingAccount.account.add',
  'hostingAccount.account.rename',
  'hostingAccount.account.remove',
  'hostingAccount.account.editAddress',
  'hostingAccount.orders.filter',
  'hostingAccount.orders.sort',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
