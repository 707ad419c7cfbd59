// The edge simulator, for tests and tools (`@switchyard/plugin-edge/simulator`): the plugin's main entry
// imports it only when it starts it.
export { ActiveWorkers } from './state.js';
export { createEdgeServer, startEdgeSimulator } from './server.js';
