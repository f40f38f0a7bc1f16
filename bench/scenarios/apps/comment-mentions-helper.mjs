// Comments: the "mentioned: @Ann Lee, @Bo" line under a comment. Display names come from a
// module helper; a mention can point at someone who has since left the thread.

const displayName = (user) => [user.first, user.last].filter(Boolean).join(' ');

export const scenario = {
  id: 'comment-mentions-helper',
  title: 'helper via uses: a mentioned user who left the thread reaches displayName as undefined',
  entry: 'mentionLine',
  uses: ['displayName'],
  healthy: [
    [{ mentions: ['u1'], participants: { u1: { first: 'Ann', last: 'Lee' }, u2: { first: 'Bo' } } }],
    [{ mentions: ['u2', 'u1'], participants: { u1: { first: 'Ann', last: 'Lee' }, u2: { first: 'Bo' } } }],
    [{ mentions: [], participants: { u3: { first: 'Cy', last: 'Chan' } } }],
  ],
  failing: [
    [{ mentions: ['u1', 'u9'], participants: { u1: { first: 'Ann', last: 'Lee' } } }],
  ],
  hidden: [
    [{ mentions: ['u7'], participants: { u1: { first: 'Ann', last: 'Lee' } } }],
    [{ mentions: ['u8', 'u3', 'u2'], participants: { u2: { first: 'Bo' }, u3: { first: 'Cy', last: 'Chan' } } }],
    [{ mentions: ['u3'], participants: { u3: { first: 'Cy', last: 'Chan' } } }],
  ],
};

export function createApp(repair) {
  function mentionLine(comment) {
    return comment.mentions.map((id) => '@' + displayName(comment.participants[id])).join(', ');
  }
  return {
    mentionLine: (comment) => repair.run({ id: 'mention-line', description: 'The users a comment mentions, as "@Name" joined by commas', uses: { displayName } }, mentionLine, comment),
  };
}

/** Someone no longer in the thread is left out of the line. */
export function intended(comment) {
  return comment.mentions.filter((id) => comment.participants[id]).map((id) => '@' + displayName(comment.participants[id])).join(', ');
}
