// A strict TypeScript app (module nodenext): the SDK's declarations type-check its use, and a wrong
// use is an error (the @ts-expect-error lines fail the build if the types were `any` or missing).
import { createRepairClient, RepairConfigError, SdkError, sourceHash, type PatchedEvent, type RepairClient, type RepairClientOptions, type SdkErrorCode } from '@suture/sdk';
import { scenario } from './scenario.mjs';

const options: RepairClientOptions = { url: 'http://127.0.0.1:9', app: 'typed', sync: 'off', record: { sampleRate: 0, first: 0 } };
const client: RepairClient = createRepairClient(options);
client.on('patched', (e: PatchedEvent) => console.error(e.blockId, e.via));
client.on('error', (e: SdkError) => {
  const code: SdkErrorCode = e.code;
  console.error(code, e.message);
});
const sum: number = await client.run('typed-sum', 'sum of two numbers', (a: number, b: number) => a + b, 2, 3);
await client.close();
// Type-checked, never called: each line must be a type error.
export function misuses(): void {
  // @ts-expect-error waitForFix is a number of milliseconds
  createRepairClient({ url: 'http://127.0.0.1:9', app: 'typed', waitForFix: 'soon' });
  // @ts-expect-error the block takes two numbers
  client.run('typed-sum', 'sum of two numbers', (a: number, b: number) => a + b, 2, 'three');
}
let refused: unknown;
try {
  createRepairClient({ url: 'not a url', app: 'typed' });
} catch (error) {
  refused = error;
}
if (sum !== 5 || !(refused instanceof RepairConfigError) || sourceHash('x').length === 0) throw new Error(`typed checks failed: ${sum} ${String(refused)}`);

console.log(JSON.stringify(await scenario(createRepairClient, process.env)));
