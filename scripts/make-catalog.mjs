// Writes resources/catalog.json, the seed catalog of templates and agents.
// Run: node scripts/make-catalog.mjs (the JSON is committed; this script documents where it came from).
import fs from 'node:fs';

const MODELS = [
  'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini',
  'claude-opus-4-1', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-3-7-sonnet-latest',
  'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite',
  'llama-3.3-70b-instruct', 'llama-4-maverick',
  'mistral-large-latest', 'mistral-small-latest', 'codestral-latest',
  'deepseek-chat', 'deepseek-reasoner', 'grok-4', 'qwen3-235b-a22b',
];
const SOURCES = ['wikipedia', 'arxiv', 'github', 'stackoverflow', 'reddit', 'hackernews', 'youtube', 'pubmed'];

const temperature = { type: 'select', name: 'temperature', description: 'Sampling temperature: 0 is focused, 1 is creative.', required: true, options: ['0', '0.25', '0.5', '0.75', '1'] };
const model = { type: 'select', name: 'model', description: 'The model that answers.', required: true, options: MODELS };
const tools = { type: 'select', name: 'tools', description: 'Tools the agent may use: none, the open internet, or one website.', required: true, options: ['no-tools', 'internet', ...SOURCES] };
const rootId = { type: 'number', name: 'root_id', description: 'A stored session id, to continue a conversation.', required: false };
const messages = { type: 'array', name: 'messages', description: 'The chat history: objects with role and content.', required: true };
const chatQuestions = [temperature, model, tools, rootId, messages];
const text = (name, description) => ({ type: 'string', name, description, required: true });
const imageModel = { type: 'select', name: 'model', description: 'The image model.', required: true, options: ['gpt-image-1', 'dall-e-3', 'dall-e-2'] };
const size = { type: 'select', name: 'size', description: 'Image size in pixels.', required: true, options: ['1024x1024', '1024x1536', '1536x1024'] };
const textModel = { ...model };

const templates = [
  { id: 'chat-assistant', type: 'chat', title: 'Chat Assistant', description: 'A general assistant for everyday questions, with optional web tools.', long_description: 'Answers questions, explains ideas and helps with everyday tasks. Choose the model, the temperature and whether it may search the internet or a single website.', questions: chatQuestions, instructions: 'You are a helpful, precise assistant. Answer clearly and say so when you are not sure.' },
  { id: 'coding-helper', type: 'chat', title: 'Coding Helper', description: 'Explains, writes and reviews code in any language.', long_description: 'A pair programmer: explains errors, proposes fixes, writes tests and reviews diffs. Code comes in fenced blocks.', questions: chatQuestions, instructions: 'You are a senior software engineer. Prefer small, correct, idiomatic code in fenced blocks, and explain trade-offs briefly.' },
  { id: 'research-assistant', type: 'chat', title: 'Research Assistant', description: 'Finds and summarises sources, citing where each fact came from.', long_description: 'Searches the internet or a chosen website such as Wikipedia, arXiv or PubMed and answers with citations.', questions: chatQuestions, instructions: 'You are a careful research assistant. Cite a source for every factual claim and separate facts from interpretation.' },
  { id: 'document-qa', type: 'chat', title: 'Document Q&A', description: 'Answers questions from the files you attach to it.', long_description: 'Link PDFs, Word files, spreadsheets or notes to this agent; it answers from their passages and says which passage it used.', questions: chatQuestions, instructions: 'Answer only from the provided document passages and memories. Quote the passage you used. If the answer is not there, say so.' },
  { id: 'writing-coach', type: 'chat', title: 'Writing Coach', description: 'Improves clarity, tone and structure of your writing.', long_description: 'Gives concrete edits and explains why, keeping your voice.', questions: chatQuestions, instructions: 'You are a writing coach. Suggest concrete edits, keep the author\'s voice, and explain each change in one line.' },
  { id: 'summarizer', type: 'text', title: 'Summarizer', description: 'Turns long text into a short, faithful summary.', long_description: 'Paste an article, a transcript or notes and get a summary with the key points and any action items.', questions: [textModel, text('text', 'The text to summarise.'), { type: 'select', name: 'length', description: 'How long the summary should be.', required: true, options: ['short', 'medium', 'long'] }], instructions: 'Summarise the text faithfully. Start with one sentence, then key points as bullets, then action items if any.' },
  { id: 'translator', type: 'text', title: 'Translator', description: 'Translates text while keeping tone and formatting.', long_description: 'Translates between languages, preserving markdown, names and tone.', questions: [textModel, text('text', 'The text to translate.'), { type: 'select', name: 'target_language', description: 'Language to translate into.', required: true, options: ['English', 'French', 'German', 'Spanish', 'Italian', 'Portuguese', 'Dutch', 'Japanese', 'Chinese', 'Korean'] }], instructions: 'Translate the text into the target language. Keep formatting, names and tone. Output only the translation.' },
  { id: 'email-drafter', type: 'text', title: 'Email Drafter', description: 'Drafts clear emails from a few bullet points.', long_description: 'Give it the gist and the tone; it writes a ready-to-send email with a subject line.', questions: [textModel, text('points', 'What the email must say.'), { type: 'select', name: 'tone', description: 'The tone of the email.', required: true, options: ['friendly', 'formal', 'direct'] }], instructions: 'Write a concise email with a subject line from the points given, in the requested tone.' },
  { id: 'blog-writer', type: 'text', title: 'Blog Post Writer', description: 'Writes a structured blog post from a topic and an outline.', long_description: 'Produces a titled post with headings, an introduction and a conclusion.', questions: [textModel, text('topic', 'What the post is about.'), { type: 'number', name: 'words', description: 'Approximate length in words.', required: false }], instructions: 'Write an engaging, well-structured blog post in markdown with a title and headings.' },
  { id: 'image-generator', type: 'image', title: 'Image Generator', description: 'Creates an image from a text description.', long_description: 'Describe the picture you want; the image is stored as a file you can download.', questions: [imageModel, text('prompt', 'What the image should show.'), size], instructions: '' },
  { id: 'logo-concepts', type: 'image', title: 'Logo Concepts', description: 'Sketches logo ideas for a brand name.', long_description: 'Generates simple, flat logo concepts from a name and a style.', questions: [imageModel, text('prompt', 'The brand name and what it stands for.'), { type: 'select', name: 'style', description: 'Visual style.', required: true, options: ['minimal', 'playful', 'geometric', 'vintage'] }, size], instructions: 'A clean, flat vector-style logo on a plain background.' },
  { id: 'product-shot', type: 'image', title: 'Product Shot', description: 'Renders a studio-style product photo.', long_description: 'Describe a product; get a studio photograph with soft light and a neutral background.', questions: [imageModel, text('prompt', 'The product to show.'), size], instructions: 'Studio product photography, soft light, neutral background.' },
  { id: 'video-script', type: 'video', title: 'Video Script Writer', description: 'Writes a short video script with scenes and narration.', long_description: 'Plans a video: scenes, shots, narration and on-screen text, timed to the length you want.', questions: [textModel, text('topic', 'What the video is about.'), { type: 'select', name: 'duration', description: 'Target length.', required: true, options: ['15s', '30s', '60s', '3min'] }], instructions: 'Write a video script as numbered scenes with shot, narration and on-screen text, timed to the duration.' },
  { id: 'video-storyboard', type: 'video', title: 'Storyboard Planner', description: 'Breaks an idea into a shot-by-shot storyboard.', long_description: 'Turns a concept into a storyboard table of shots, camera moves and durations.', questions: [textModel, text('idea', 'The idea or story.')], instructions: 'Produce a storyboard as a markdown table: shot, description, camera, duration.' },
];

const agents = [
  { template_id: 'chat-assistant', title: 'Chat', slug: 'chat', description: 'Chat with a model of your choice, with your memories and files as context.', long_description: templates[0].long_description, type: 'chat', questions: chatQuestions, instructions: templates[0].instructions },
  { template_id: 'summarizer', title: 'Summarizer', slug: 'summarizer' },
  { template_id: 'document-qa', title: 'Document Q&A', slug: 'document-qa' },
  { template_id: 'image-generator', title: 'Image Generator', slug: 'image-generator' },
];

fs.writeFileSync(new URL('../resources/catalog.json', import.meta.url), JSON.stringify({ version: 1, templates, agents }, null, 2) + '\n');
console.log(`catalog: ${templates.length} templates, ${agents.length} agents`);
