// Members a connector answers typed otherwise than the hosted catalog types them, on purpose: where the hosted
// schema is wrong about the provider and following it would cost something real. Each is named by its path with
// record indices elided (`stats_activity_scorecards.list[].callId`) and says why; the suite does not count them,
// and the connector's hosted-records test asserts each still occurs, so none outlives its reason.

export interface HostedTypeException {
  /** `<entity>.<action>[].<member>` with every array index written `[]`. */
  path: string;
  reason: string;
}

/** `settings_scorecards.list[].questions[].questionId` for `settings_scorecards.list[2].questions[0].questionId: must be string,null`. */
export function violationPath(violation: string): string {
  const at = violation.indexOf(': ');
  return (at === -1 ? violation : violation.slice(0, at)).replace(/\[\d+\]/g, '[]');
}

/** `violations` less those an exception names. */
export function unexcepted(violations: string[], exceptions: readonly HostedTypeException[]): string[] {
  if (exceptions.length === 0) return violations;
  const paths = new Set(exceptions.map((e) => e.path));
  return violations.filter((v) => !paths.has(violationPath(v)));
}
