/** One turn of a conversation as the model sees it (stored executions become these). */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}
