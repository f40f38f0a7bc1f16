/*
 * The hardened realm, as a plain script: it defines exactly one function, `createHardenedRealm`,
 * and runs inside an isolated-vm context after SES (`ses.umd.min.js`), which installs `lockdown`,
 * `harden` and `Compartment` (see core/hardened-realm.ts for how the texts are loaded).
 *
 * Why: untrusted code (a repair candidate in the worker's sandbox, a signed patch in an app's SDK)
 * and the code that judges it or copies its answer out must not share anything the untrusted code
 * can change. `lockdown()` freezes every intrinsic of the context (Object.prototype,
 * Array.prototype, Function.prototype.toString, JSON, Promise…), so no accessor, setter or
 * replaced method can reach the judge's codec; each block then runs in its own `Compartment`,
 * with a global object of its own, so replacing `console`, `JSON` or any other global changes that
 * block's world only. The judge keeps the start compartment, which no compartment can name.
 *
 * A block sees the same world in both places (a trial and a fleet instance): standard globals,
 * `Date`, `Math` and `Intl` as in Node (compartments otherwise get a `Date.now` that throws and
 * no `Intl`), and a `console` that prints nothing. Code runs in strict mode, as in ES modules.
 */
function createHardenedRealm() {
  'use strict';
  // Stacks stay readable (fault localisation reads block.js positions from them); the rest keeps
  // the behaviour blocks have in Node (locale-aware formatting, the console we install).
  const lockdownOptions = {
    errorTaming: 'unsafe',
    stackFiltering: 'verbose',
    overrideTaming: 'moderate',
    consoleTaming: 'unsafe',
    localeTaming: 'unsafe',
    evalTaming: 'unsafe-eval',
    reporting: 'none',
  };
  const CompartmentCtor = Compartment;
  const lockdownFn = lockdown;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const apply = Reflect.apply;
  const StringIndexOf = String.prototype.indexOf;
  const SafeString = String;
  const InitialDate = Date;
  const InitialError = Error;
  const InitialMath = Math;
  const InitialIntl = typeof Intl === 'object' ? Intl : undefined;
  let hardenFn = null;

  /** One line precedes the block's own text in what a compartment evaluates. */
  const PREFIX_LINES = 1;
  const SOURCE_URL = '\n//# sourceURL=block.js';

  /**
   * Stack traces show the block's own frames only (`block.js`), in Node's format. A block can read
   * `error.stack`; without this it would see the frames of whoever called it (the trial harness or
   * the SDK's), and could tell a trial from a fleet instance.
   */
  function blockFrames(error, sites) {
    let out = '';
    try {
      out = SafeString(error.name) + ': ' + SafeString(error.message);
    } catch {
      out = 'Error';
    }
    for (let i = 0; i < sites.length; i++) {
      try {
        const site = sites[i];
        if (site.getScriptNameOrSourceURL() !== 'block.js') continue;
        const fn = site.getFunctionName();
        const where = 'block.js:' + site.getLineNumber() + ':' + site.getColumnNumber();
        out += '\n    at ' + (fn ? fn + ' (' + where + ')' : where);
      } catch {
        /* a frame we cannot read is left out */
      }
    }
    return out;
  }

  function lock() {
    lockdownFn(lockdownOptions);
    // The start compartment's Error governs every stack in the context; compartments cannot set it.
    InitialError.prepareStackTrace = blockFrames;
    hardenFn = harden;
    // Intl is left out of SES's shared intrinsics; blocks format numbers and dates with it in Node.
    if (InitialIntl !== undefined) hardenFn(InitialIntl);
  }

  const noop = freeze(function () {});
  const CONSOLE_METHODS = [
    'log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'group', 'groupCollapsed',
    'groupEnd', 'time', 'timeEnd', 'timeLog', 'count', 'countReset', 'clear', 'assert',
  ];

  /** A console whose every method does nothing (and `assert` never throws, as in Node). */
  function quietConsole() {
    const c = {};
    for (let i = 0; i < CONSOLE_METHODS.length; i++) defineProperty(c, CONSOLE_METHODS[i], { value: noop, writable: true, enumerable: true, configurable: true });
    return c;
  }

  /** A fresh compartment: the standard globals, Node's Date/Math/Intl, a quiet console, and `extra`. */
  function compartment(extra) {
    if (hardenFn === null) throw new Error('the realm is not locked down');
    const globals = { console: quietConsole(), Date: InitialDate, Math: InitialMath };
    if (InitialIntl !== undefined) globals.Intl = InitialIntl;
    if (extra) {
      for (const key in extra) defineProperty(globals, key, { value: extra[key], writable: true, enumerable: true, configurable: true });
    }
    return new CompartmentCtor({ globals, __options__: true });
  }

  /**
   * Make each name in `names` that compartment `c` does not define throw `ReferenceError: name is
   * not defined` when read or written, as in Node (an SES compartment answers `undefined` for a
   * name nobody declared). `names` are the block's free identifiers, found by parsing.
   */
  function undeclared(c, names) {
    const global = c.globalThis;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (!isIdentifier(name) || name in global) continue;
      const fail = function () {
        throw new ReferenceError(name + ' is not defined');
      };
      defineProperty(global, name, { get: fail, set: fail, enumerable: false, configurable: true });
    }
  }

  function isIdentifier(s) {
    if (typeof s !== 'string' || s.length === 0 || s.length > 200) return false;
    for (let i = 0; i < s.length; i++) {
      const c = apply(String.prototype.charCodeAt, s, [i]);
      const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95 || c > 127 || (i > 0 && c >= 48 && c <= 57);
      if (!ok) return false;
    }
    return true;
  }

  /**
   * Evaluate a block in compartment `c`. Entry-less (`entry` ''): `source` is one function
   * expression, and the answer is `{ entry: fn, names: [], values: [] }`. Otherwise `source` is a
   * script declaring `entry` (and maybe `names`, its other top-level declarations), and the answer
   * holds the entry function and the value of each name (undefined where it is not declared).
   * Throws what evaluation throws; an entry that is not a function throws an `EntryNotFound` error.
   */
  function evaluateBlock(c, source, entry, names) {
    if (entry === '') {
      const fn = c.evaluate('(\n' + source + '\n)' + SOURCE_URL);
      if (typeof fn !== 'function') throw entryError('the block is ' + typeof fn + ', not a function expression');
      return { entry: fn, names: [], values: [] };
    }
    if (!isIdentifier(entry)) throw entryError('entry is not an identifier: ' + SafeString(entry));
    const all = [entry];
    if (names) for (let i = 0; i < names.length; i++) if (isIdentifier(names[i]) && names[i] !== entry) all[all.length] = names[i];
    let tail = '\n;[';
    for (let i = 0; i < all.length; i++) tail += (i ? ',' : '') + '(typeof ' + all[i] + " === 'undefined' ? undefined : " + all[i] + ')';
    tail += ']';
    const values = c.evaluate(';\n' + source + tail + SOURCE_URL);
    if (typeof values[0] !== 'function') throw entryError(entry + ' is ' + typeof values[0] + ', not a function');
    const outNames = [];
    const outValues = [];
    for (let i = 1; i < all.length; i++) {
      outNames[i - 1] = all[i];
      outValues[i - 1] = values[i];
    }
    return { entry: values[0], names: outNames, values: outValues };
  }

  function entryError(message) {
    const e = new Error(message);
    defineProperty(e, 'name', { value: 'EntryNotFound', writable: true, configurable: true });
    return e;
  }

  /** Whether a SyntaxError message is one of SES's own source rejections (the code parses). */
  function isSesRejection(message) {
    return typeof message === 'string' && apply(StringIndexOf, message, ['(SES_']) >= 0;
  }

  return freeze({ lock, compartment, undeclared, evaluateBlock, isSesRejection, PREFIX_LINES, harden: (v) => hardenFn(v) });
}
