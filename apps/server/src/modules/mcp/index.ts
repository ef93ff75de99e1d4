// The MCP server's face (decision 044): the app registers its route from here; the tools and their error texts are
// its own. It reaches other domains through their faces and the services the composition root hands in.
export { registerMcp } from './mcp.routes.js';
