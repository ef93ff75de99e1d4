// Replacement of a port's modem (decision 044; decision 028): the customer's request, the console's "return to
// service", and the automatic moves (job handler and planner, registered by background.ts).
export { ReplacementRepository } from './replacement.repository.js';
export { registerReplacement } from './replacement.routes.js';
export { ReplacementService } from './replacement.service.js';
