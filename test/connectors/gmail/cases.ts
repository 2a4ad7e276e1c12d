// Gmail cases of the definition-driven suite, over the fake's seeded mailbox (fake/dataset.ts): ids are read
// from the dataset. Refusals are the fake's own answers as Google gives them (404 notFound, 400
// invalidArgument); the profile and the label list take no params a mailbox could refuse, so theirs is an
// injected 403.
import type { Cases } from '../suite/types.ts';
import type { Dataset } from './fake/dataset.ts';

/** An id with Gmail's look that names nothing. */
export const MISSING_ID = '18f0000000000000';

const notFound = 'UPSTREAM_NOT_FOUND' as const;

/** An RFC 2822 message as users.messages.send and drafts take it: base64url in `raw`. */
export const rawMessage = (headers: Record<string, string>, text: string) =>
  Buffer.from(
    `${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${text}`,
  ).toString('base64url');

export function gmailCases(data: Dataset): Cases {
  const inbox = data.newestFirst().filter((m) => m.labelIds.includes('INBOX'));
  const withAttachment = inbox.find((m) => m.attachments.length > 0);
  const [read, starred, trashed] = inbox;
  const untrash = data.newestFirst().find((m) => m.labelIds.includes('TRASH'));
  const [draft, edited, doomed, sent] = [...data.drafts.values()];
  const userLabels = data.labels.filter((l) => l.type === 'user');
  const [renamed, dropped] = userLabels.slice(-2);
  if (
    !read ||
    !starred ||
    !trashed ||
    !untrash ||
    !withAttachment ||
    !draft ||
    !edited ||
    !doomed ||
    !sent ||
    !renamed ||
    !dropped
  )
    throw new Error('the Gmail fake seeded too few messages, drafts or labels');
  const attachment = withAttachment.attachments[0] as { id: string };
  const raw = rawMessage(
    { To: 'grace@ces-demo.example', Subject: 'From the suite' },
    'Hello from the suite.\r\n',
  );
  const noRecipient = rawMessage({ Subject: 'Nobody' }, 'Lost.\r\n');
  return {
    'profile.get': {
      happy: {},
      error: {
        params: {},
        code: 'UPSTREAM_FORBIDDEN',
        fault: { status: 403, match: '/gmail/v1/users/me/profile' },
      },
    },
    // About 40 messages outside spam and trash, ten a page.
    'messages.list': {
      happy: { maxResults: 10, includeSpamTrash: false },
      error: { params: { labelIds: ['Label_999'] }, code: 'INVALID_PARAMS' },
    },
    'messages.get': {
      happy: { messageId: read.id, format: 'metadata', metadataHeaders: ['From', 'Subject'] },
      error: { params: { messageId: MISSING_ID }, code: notFound },
    },
    'messages.create': {
      happy: { raw },
      error: { params: { raw: noRecipient }, code: 'INVALID_PARAMS' },
    },
    'messages.update': {
      happy: { messageId: starred.id, addLabelIds: ['STARRED'], removeLabelIds: ['UNREAD'] },
      error: { params: { messageId: MISSING_ID, addLabelIds: ['STARRED'] }, code: notFound },
    },
    'messages_trash.create': {
      happy: { messageId: trashed.id },
      error: { params: { messageId: MISSING_ID }, code: notFound },
    },
    'messages_untrash.create': {
      happy: { messageId: untrash.id },
      error: { params: { messageId: MISSING_ID }, code: notFound },
    },
    'attachments.get': {
      happy: { messageId: withAttachment.id, attachmentId: attachment.id },
      error: { params: { messageId: MISSING_ID, attachmentId: attachment.id }, code: notFound },
    },
    // 22 threads outside spam and trash, ten a page.
    'threads.list': {
      happy: { maxResults: 10 },
      error: { params: { labelIds: ['Label_999'] }, code: 'INVALID_PARAMS' },
    },
    'threads.get': {
      happy: { threadId: read.threadId, format: 'minimal' },
      error: { params: { threadId: MISSING_ID }, code: notFound },
    },
    'labels.list': {
      happy: {},
      error: {
        params: {},
        code: 'UPSTREAM_FORBIDDEN',
        fault: { status: 403, match: '/gmail/v1/users/me/labels' },
      },
    },
    'labels.get': {
      happy: { labelId: 'INBOX' },
      error: { params: { labelId: 'Label_999' }, code: notFound },
    },
    'labels.create': {
      happy: {
        name: 'Written by the suite',
        messageListVisibility: 'show',
        labelListVisibility: 'labelShow',
        color: { textColor: '#000000', backgroundColor: '#16a765' },
      },
      // A name the mailbox has: 409 "Label name exists or conflicts", which no 4xx kind names.
      error: {
        params: { name: 'Invoices', messageListVisibility: 'show', labelListVisibility: 'labelHide' },
        code: 'UPSTREAM_ERROR',
      },
    },
    'labels.update': {
      happy: { labelId: renamed.id, name: 'Renamed by the suite' },
      error: { params: { labelId: 'Label_999', name: 'x' }, code: notFound },
    },
    'labels.delete': {
      happy: { labelId: dropped.id },
      // System labels can't be deleted: 400 "Invalid delete request".
      error: { params: { labelId: 'INBOX' }, code: 'INVALID_PARAMS' },
      no_content: 'Google answers labels.delete 204 without a body',
    },
    // 12 drafts, five a page.
    'drafts.list': {
      happy: { maxResults: 5 },
      error: { params: { pageToken: 'not-a-token' }, code: 'INVALID_PARAMS' },
    },
    'drafts.get': {
      happy: { draftId: draft.id, format: 'raw' },
      error: { params: { draftId: 'r0000000000000000000' }, code: notFound },
    },
    'drafts.create': {
      happy: { raw },
      error: { params: { raw: 'not base64url!' }, code: 'INVALID_PARAMS' },
    },
    'drafts.update': {
      happy: { draftId: edited.id, raw },
      error: { params: { draftId: 'r0000000000000000000', raw }, code: notFound },
    },
    'drafts.delete': {
      happy: { draftId: doomed.id },
      error: { params: { draftId: 'r0000000000000000000' }, code: notFound },
      no_content: 'Google answers drafts.delete 204 without a body',
    },
    'drafts_send.create': {
      happy: { draftId: sent.id },
      error: { params: { draftId: 'r0000000000000000000' }, code: notFound },
    },
  };
}
