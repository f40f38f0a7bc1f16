import { parse, type Program } from 'acorn';
import { LlmAnswerError } from './llm-errors.ts';

/**
 * Checks, by parsing only, that an untrusted replacement source has the block's form:
 * with `entry`, a script declaring a function named `entry`; without, a single function
 * expression. Nothing is evaluated: hostile code that parses passes this check and is
 * contained by the sandbox later.
 * @throws LlmAnswerError (`SUTURE_LLM_PARSE` or `SUTURE_LLM_FORM`)
 */
export function checkSourceForm(source: string, entry: string | undefined): void {
  if (entry !== undefined) {
    const program = parseOrThrow(source);
    if (!program.body.some((statement) => declaresName(statement, entry))) {
      throw new LlmAnswerError('SUTURE_LLM_FORM', `source does not declare \`${entry}\` at top level`);
    }
    return;
  }
  // The newline keeps a trailing line comment from swallowing the closing parenthesis; the
  // single-statement check then rejects anything smuggled beside the expression.
  const program = parseOrThrow(`(${source}\n)`);
  const only = program.body.length === 1 ? program.body[0] : undefined;
  const expression = only?.type === 'ExpressionStatement' ? only.expression : undefined;
  if (expression?.type !== 'FunctionExpression' && expression?.type !== 'ArrowFunctionExpression') {
    throw new LlmAnswerError('SUTURE_LLM_FORM', 'source is not a single function expression');
  }
}

function parseOrThrow(text: string): Program {
  try {
    return parse(text, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch (error) {
    throw new LlmAnswerError('SUTURE_LLM_PARSE', `source does not parse: ${(error as Error).message}`);
  }
}

function declaresName(statement: Program['body'][number], name: string): boolean {
  if (statement.type === 'FunctionDeclaration') return statement.id?.name === name;
  if (statement.type === 'VariableDeclaration') {
    return statement.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === name && d.init != null);
  }
  return false;
}
