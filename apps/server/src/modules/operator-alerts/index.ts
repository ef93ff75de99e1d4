// Operator alerts (decision 044): each operator's own channels for the farm's alerts, set on the console's Alerts page.
export { registerOperatorAlertsAdminRoutes } from './operator-alerts-admin.routes.js';
export { OperatorAlertsRepository } from './operator-alerts.repository.js';
export { OperatorAlertsService } from './operator-alerts.service.js';
