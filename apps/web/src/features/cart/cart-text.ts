/** The cart screens' wording (spec/001 §2 Cart widget, Cart page, Payment Successful, Payment Cancelled). */
export const CART_TEXT = {
  widgetTitle: 'Shopping Cart',
  goToCheckout: 'Go to Checkout',
  removeItem: 'Remove item',
  total: 'Total',
  pageTitle: 'Cart',
  clearCart: 'Clear Cart',
  orderSummary: 'Order Summary',
  checkout: 'Checkout',
  empty: 'Your cart is empty.',
  browseRobots: 'Add Robots',
  successTitle: 'Payment Successful',
  successThanks: 'Thank you for your purchase.',
  returnToDashboard: 'Return to dashboard',
  cancelTitle: 'Payment Cancelled',
  cancelText: 'Your transaction has not been completed.',
  backToCart: 'Back to cart',
} as const;
