/**
 * The lazily loaded notifications: how a failure is told (a sentence, the next steps) and shown. Views, the status
 * bar and commands all load it through `./lazy`; it is required when the first problem has to be told.
 */
export { showInsecureTlsNotice } from './insecureTlsNotice';
export { showRateLimitWait } from './rateLimitWait';
export { type FailureContext, logFailure, showReport, toReport } from './report';
export { shortReason } from './shortReason';
export { viewMessagesOf } from './viewMessageText';
