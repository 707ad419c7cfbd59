// Mocha's settings for every run (npm test, test:quick, a single file). `npm test` and
// `test:quick` add --parallel: test files then run in worker processes, `jobs` at a time. Each file
// has its own databases, ports and folders; most of a file's time is waiting on the processes it
// starts, so one more job than there are cores keeps them busy (3 on a 2-core machine).
'use strict';
const { availableParallelism } = require('node:os');

module.exports = {
  'node-option': ['conditions=switchyard-source', 'import=tsx'],
  extension: ['ts'],
  timeout: 30000,
  exit: true,
  jobs: Number(process.env.SWITCHYARD_TEST_JOBS) || Math.max(3, availableParallelism() + 1),
  require: ['test/support/build-once.cjs', 'test/support/file-durations.cjs'],
};
