// Starts one plugin's upstream simulator in its own process and prints {"url": …} when ready.
const name = process.argv[2] ?? 'edge';
const mod = (await import(`@switchyard/plugin-${name}`)) as Record<string, { name?: string; startSimulator?: (o: { host: string; port: number }) => Promise<{ url: string; close(): Promise<void> }> }>;
const plugin = Object.values(mod).find((p) => p?.name === name && typeof p.startSimulator === 'function');
if (!plugin?.startSimulator) throw new Error(`plugin ${name} has no simulator`);
const simulator = await plugin.startSimulator({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ url: simulator.url }) + '\n');
process.on('SIGTERM', () => void simulator.close().then(() => process.exit(0)));
