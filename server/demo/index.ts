/** The demo `parley start` sets up: its seed and its page. */
export { demoPage, type DemoConfig } from './page.js';
export {
  DEMO_AGENT,
  DEMO_GROUP,
  DEMO_NAMESPACE,
  DEMO_OPERATOR,
  DEMO_USERS,
  demoDocuments,
  seedDemo,
} from './seed.js';
