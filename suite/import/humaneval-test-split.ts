/**
 * Splits a HumanEval-style test (`const testX = () => { console.assert(...) ... }; testX()`) into
 * separate assert scripts, or decides it cannot be split.
 *
 * A test that loops, or whose asserts read the test's own local variables, only means something as
 * a whole, so it becomes one script; otherwise each top-level `console.assert(...)` statement of the
 * test function is extracted verbatim by source range, in order.
 */
import * as acorn from 'acorn';
import * as walk from 'acorn-walk';

export type TestSplit =
  | { by: 'asserts'; asserts: string[]; /** Statements of the test body that were not asserts and were dropped. */ dropped: string[] }
  | { by: 'whole'; script: string; reason: string };

export class TestSplitError extends Error {
  readonly code = 'SUTURE_TEST_SPLIT';
  constructor(message: string) {
    super(message);
    this.name = 'TestSplitError';
  }
}

type Node = acorn.AnyNode;
type FunctionNode = acorn.ArrowFunctionExpression | acorn.FunctionExpression | acorn.FunctionDeclaration;

const loopTypes = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

export function splitHumanEvalTest(test: string): TestSplit {
  let program: acorn.Program;
  try {
    program = acorn.parse(test, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch (err) {
    throw new TestSplitError(`test does not parse: ${(err as Error).message}`);
  }
  const found = findTestFunction(program);
  if (!found) throw new TestSplitError('no test function (a top-level function that the test then calls)');
  const { name, fn, declaration } = found;
  if (fn.body.type !== 'BlockStatement') throw new TestSplitError(`test function ${name} has an expression body`);
  const body = fn.body.body;

  const whole = (reason: string): TestSplit => ({
    by: 'whole',
    script: `${test.slice(declaration.start, declaration.end)}\n${name}()\n`,
    reason,
  });

  const asserts: acorn.ExpressionStatement[] = [];
  const others: acorn.Statement[] = [];
  for (const statement of body) {
    if (isConsoleAssert(statement)) asserts.push(statement);
    else others.push(statement as acorn.Statement);
  }

  // Loops anywhere in the test body, including inside asserts' callbacks nested in the body's own statements.
  let loops = false;
  for (const statement of others) {
    walk.full(statement, (node) => {
      if (loopTypes.has(node.type)) loops = true;
    });
  }
  if (loops) return whole('the test loops');

  const locals = declaredNames(fn, asserts);
  for (const statement of asserts) {
    const used = new Set<string>();
    walk.simple(statement, { Identifier: (node) => void used.add(node.name) });
    const local = [...used].find((n) => locals.has(n));
    if (local !== undefined) return whole(`an assert reads the test's local "${local}"`);
  }
  if (asserts.length === 0) return whole('the test has no top-level console.assert');

  return {
    by: 'asserts',
    asserts: asserts.map((s) => test.slice(s.start, s.end)),
    dropped: others.map((s) => test.slice(s.start, s.end)),
  };
}

/** The top-level function the test script calls (first such call wins; else the only function). */
function findTestFunction(program: acorn.Program): { name: string; fn: FunctionNode; declaration: Node } | undefined {
  const functions = new Map<string, { fn: FunctionNode; declaration: Node }>();
  for (const statement of program.body) {
    if (statement.type === 'FunctionDeclaration' && statement.id) {
      functions.set(statement.id.name, { fn: statement, declaration: statement });
    } else if (statement.type === 'VariableDeclaration') {
      for (const d of statement.declarations) {
        if (d.id.type === 'Identifier' && d.init && (d.init.type === 'ArrowFunctionExpression' || d.init.type === 'FunctionExpression')) {
          functions.set(d.id.name, { fn: d.init, declaration: statement });
        }
      }
    }
  }
  for (const statement of program.body) {
    if (statement.type !== 'ExpressionStatement') continue;
    const call = statement.expression;
    if (call.type === 'CallExpression' && call.callee.type === 'Identifier') {
      const hit = functions.get(call.callee.name);
      if (hit) return { name: call.callee.name, ...hit };
    }
  }
  if (functions.size === 1) {
    const [name, hit] = [...functions][0]!;
    return { name, ...hit };
  }
  return undefined;
}

function isConsoleAssert(statement: Node): statement is acorn.ExpressionStatement {
  if (statement.type !== 'ExpressionStatement') return false;
  const call = statement.expression;
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.computed) return false;
  const { object, property } = call.callee;
  return object.type === 'Identifier' && object.name === 'console' && property.type === 'Identifier' && property.name === 'assert';
}

/** Names declared inside the test function (params, variables, functions, classes), outside the asserts themselves. */
function declaredNames(fn: FunctionNode, asserts: acorn.ExpressionStatement[]): Set<string> {
  const names = new Set<string>();
  const skip = new Set<Node>(asserts);
  const addPattern = (pattern: acorn.Pattern | null | undefined): void => {
    if (!pattern) return;
    switch (pattern.type) {
      case 'Identifier':
        names.add(pattern.name);
        break;
      case 'ObjectPattern':
        for (const p of pattern.properties) addPattern(p.type === 'RestElement' ? p.argument : p.value);
        break;
      case 'ArrayPattern':
        for (const p of pattern.elements) addPattern(p);
        break;
      case 'RestElement':
        addPattern(pattern.argument);
        break;
      case 'AssignmentPattern':
        addPattern(pattern.left);
        break;
      default:
        break; // member expressions assign, they do not declare
    }
  };
  for (const param of fn.params) addPattern(param);
  walk.recursive(fn.body, undefined, {
    ExpressionStatement(node, state, c) {
      if (skip.has(node)) return;
      c(node.expression, state);
    },
    VariableDeclarator(node, state, c) {
      addPattern(node.id);
      if (node.init) c(node.init, state);
    },
    FunctionDeclaration(node, state, c) {
      if (node.id) names.add(node.id.name);
      for (const p of node.params) addPattern(p);
      c(node.body, state);
    },
    ClassDeclaration(node, state, c) {
      if (node.id) names.add(node.id.name);
      walk.base.ClassDeclaration!(node, state, c);
    },
  });
  return names;
}
