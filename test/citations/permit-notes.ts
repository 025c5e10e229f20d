/**
 * The notes both citation suites link to the chat agent, and the question whose answer cites them:
 * small enough to enter the context whole, one passage a file.
 */
export const PERMIT_QUESTION = 'When must the permit be renewed?';

export const PERMIT_NOTES = [
  { name: 'meeting.txt', text: 'Meeting notes: the spring release moves to 14 April.' },
  { name: 'todo.txt', text: 'Buy stamps. Renew the parking permit before Friday.' },
];
