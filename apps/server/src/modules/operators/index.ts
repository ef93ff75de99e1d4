// Operators (decision 044): the accounts that run the console — listed, promoted or created (the console's Admins page
// and `npm run admin -- create` call the same audited operation), demoted.
export { generatePassword } from './generated-password.js';
export { registerOperatorsAdminRoutes } from './operators-admin.routes.js';
export { OperatorsRepository } from './operators.repository.js';
export { OperatorsService, type OperatorsActor } from './operators.service.js';
