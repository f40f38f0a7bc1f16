/**
 * A ScriptRunner on node:vm for importer tests that must not depend on the sandbox: a failed
 * console.assert throws, and a synchronous timeout stops infinite loops. Not a security boundary.
 */
import vm from 'node:vm';
import type { ScriptRunner } from '../../suite/import/script-runner.ts';

export function vmScriptRunner(timeoutMs = 500): ScriptRunner {
  return async (source, entry, script) => {
    const context = vm.createContext({
      console: {
        assert: (ok: unknown, ...rest: unknown[]) => {
          if (!ok) throw new Error(`Assertion failed${rest.length ? `: ${rest.join(' ')}` : ''}`);
        },
        log: () => {},
      },
    });
    try {
      vm.runInContext(`${source}\n;if (typeof ${entry} !== 'function') throw new Error('no entry');\n${script}`, context, { timeout: timeoutMs });
      return true;
    } catch {
      return false;
    }
  };
}
