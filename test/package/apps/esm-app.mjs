import { createRepairClient } from '@suture/sdk';
import { scenario } from './scenario.mjs';

console.log(JSON.stringify(await scenario(createRepairClient, process.env)));
