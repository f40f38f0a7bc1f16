/**
 * Runs one test script against one program and says whether it passed; what the importer needs to
 * decide which asserts fail on the buggy code.
 * @param source - the program (declares `entry`)
 * @param entry - the function the program must define
 * @param script - statements run after the program; a failed `console.assert` counts as a failure
 * @returns true when the script completed with no failed assertion within the time limit
 */
export type ScriptRunner = (source: string, entry: string, script: string) => Promise<boolean>;
