// The legal texts (decision 044): the public reader's route, the console's versions, sign-up's acceptance.
export { registerLegal } from './legal.routes.js';
export { registerLegalAdminRoutes } from './legal-admin.routes.js';
export { acceptCurrentVersions, LegalRepository } from './legal.repository.js';
export { LegalService } from './legal.service.js';
