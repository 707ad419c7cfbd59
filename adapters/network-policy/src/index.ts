// The address policy every outbound connection of ours is held to, shared by the web-fetch plugin (through the plugin kit) and the forwarder.
export { AddressPolicy, refusedRange, type RefusedRange } from './address-policy.js';
