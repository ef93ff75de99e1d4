// The built web app, its translations and the SPA entry for every client route (decision 044).
export { registerWeb } from './web.routes.js';
