import { startTestService } from './support/app.js';
const first = await startTestService('sqlite'); await first.close();
const c0 = process.cpuUsage(); const t = performance.now();
for (let i = 0; i < 5; i++) { const s = await startTestService('sqlite'); await new Promise((r) => setTimeout(r, 300)); await s.close(); }
const c = process.cpuUsage(c0);
console.log('per service', ((performance.now() - t) / 5).toFixed(0), 'ms wall', ((c.user + c.system) / 5000).toFixed(0), 'ms cpu');
