import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authenticated/dashboard/')({
  component: RobotManagerPlaceholder,
});

function RobotManagerPlaceholder() {
  return <h1 className="text-2xl font-semibold">Robot Manager</h1>;
}
