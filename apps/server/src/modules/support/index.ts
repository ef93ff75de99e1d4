// Support tickets (decision 044): the customer's and the console's routes, the service the composition root builds.
export { registerSupport } from './support.routes.js';
export { registerSupportAdminRoutes } from './support-admin.routes.js';
export { SupportRepository } from './support.repository.js';
export { SupportService } from './support.service.js';
