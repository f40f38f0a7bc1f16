// A CommonJS app: require() of the SDK (an ES module; Node ≥ 22.12 loads it synchronously).
const sdk = require('@suture/sdk');

if (typeof sdk.createRepairClient !== 'function') throw new Error(`require('@suture/sdk') gave ${Object.keys(sdk)}`);
import('./scenario.mjs')
  .then(({ scenario }) => scenario(sdk.createRepairClient, process.env))
  .then((summary) => console.log(JSON.stringify(summary)));
