/**
 * /logout: clears the stored token and the user, then replaces history with / (spec section 2).
 */
import { useEffect, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { LoadingView } from '../../components/ui/LoadingView.tsx';
import { useSession } from '../session.tsx';

export default function LogoutRoute(): ReactElement {
  const { signOut } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    signOut();
    navigate('/', { replace: true });
  }, [signOut, navigate]);
  return <LoadingView />;
}
