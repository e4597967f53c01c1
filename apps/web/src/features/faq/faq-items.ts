/** The portal pages an answer can link to. */
export type FaqTarget = 'add-robots' | 'support' | 'profile' | 'subscriptions';

/** A piece of an answer: plain text, or words that link to the page they name. */
export type FaqSegment = string | { text: string; page: FaqTarget };

export interface FaqItem {
  id: string;
  question: string;
  /** Paragraphs; a paragraph that names a page is a list of segments, so the name is a link there. */
  answer: readonly (string | readonly FaqSegment[])[];
}

/** A paragraph's text without its links, e.g. as a React key. */
export function paragraphText(paragraph: string | readonly FaqSegment[]): string {
  return typeof paragraph === 'string'
    ? paragraph
    : paragraph.map((s) => (typeof s === 'string' ? s : s.text)).join('');
}

// Answers name only pages that exist: the Flexible Licenses page is built by later work, so the
// answers do not send customers there yet.
export const FAQ_ITEMS: readonly FaqItem[] = [
  {
    id: 'add-robot',
    question: 'How do I add a new robot?',
    answer: [
      [
        'Open ',
        { text: 'Add Robots', page: 'add-robots' },
        ', find your robot’s make and model, and add its license to your cart. After checkout, an unpaired license with a pairing code appears in MY ROBOTS on your dashboard.',
      ],
      'Install and open the Hub on a computer connected to the robot, then enter the pairing code to pair the robot with that license.',
    ],
  },
  {
    id: 'pairing-code',
    question: 'What is a pairing code and where do I find it?',
    answer: [
      'A pairing code is a short code that links one robot license to one physical robot. Each unpaired license shows its code on its card in MY ROBOTS.',
      'Once the robot is paired, the code disappears and the card shows the robot’s name and whether it is Active or Inactive.',
    ],
  },
  {
    id: 'robot-inactive',
    question: 'Why does my robot show as Inactive?',
    answer: [
      'Inactive means the robot is not reporting to us right now. Check that the robot is switched on and connected to the network, and that the Hub is running on the computer it is connected to.',
      [
        'If it stays inactive, the documentation has a troubleshooting guide, or you can ',
        { text: 'get in touch with our support team', page: 'support' },
        '.',
      ],
    ],
  },
  {
    id: 'dial-time',
    question: 'What is dial time?',
    answer: [
      'Dial time is the number of minutes you spend connected to (dialling) a robot you do not hold a license for. It is not used when you drive your own licensed robots.',
      'You have two kinds: a yearly allowance from your plan, which resets at the start of each period, and time you buy, which never expires. The yearly allowance is used first. Pro subscribers have infinite dial time.',
    ],
  },
  {
    id: 'buy-dial-time',
    question: 'How do I buy more dial time?',
    answer: [
      'On your dashboard, open the dial time panel and choose Buy More Time, pick a package and select Go to Checkout. The minutes are added as soon as the payment succeeds, and they never expire.',
      'Standard subscribers pay less for each package than Lite users. Pro subscribers do not need to buy time: their dial time is unlimited.',
    ],
  },
  {
    id: 'license-types',
    question: 'What is the difference between a robot license and a flexible license?',
    answer: [
      'A robot driver license is bought for one robot model and lasts a year. It belongs to you and can be paired with one physical robot of that model.',
      'Flexible licenses come with some subscription plans as a number of slots. Each slot holds a license for one approved robot model, and the selection can be changed later; robots using a replaced license need pairing again.',
    ],
  },
  {
    id: 'download-hub',
    question: 'Where do I download the Hub?',
    answer: [
      'Open Downloads in the sidebar, choose your operating system and select Download Now. You need to accept the license agreement before the download starts.',
      'The page only offers the operating systems the current Hub release supports, and links to a quickstart guide for installing it.',
    ],
  },
  {
    id: 'subscription-change',
    question: 'How do I upgrade, update payment details or cancel my subscription?',
    answer: [
      [
        'Open the ',
        { text: 'Subscription Dashboard', page: 'subscriptions' },
        ' under Subscriptions in the sidebar. It shows your current plan and the plans above it: choose Upgrade Now on a plan, pick Monthly or Annually, and complete the payment. Your new plan applies as soon as the payment succeeds.',
      ],
      'To update your card or billing details, change or cancel your plan, or find past receipts, choose Update Payment Info. A cancelled plan stays active until the end of the period you have paid for.',
      'The same page lists your robot driver subscriptions with their status and expiry date. If a change does not show straight away, choose Refresh Subscriptions.',
    ],
  },
  {
    id: 'forgot-password',
    question: 'I forgot my password. What should I do?',
    answer: [
      'On the sign-in page, open Forgot Password?, enter your email address and select Recover. We will email you a link to choose a new password.',
    ],
  },
  {
    id: 'delete-account',
    question: 'How do I delete my account?',
    answer: [
      'Open Profile from the user menu and go to the Danger Zone. Type “delete my account”, enter your password and confirm. Deleting your account signs you out and cannot be undone.',
    ],
  },
];
