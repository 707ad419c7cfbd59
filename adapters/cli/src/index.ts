// The CLI adapter: the switchyard command over the HTTP API.
export { main } from './main.js';
export { SwitchyardClient, CliError } from './client.js';
