/**
 * /logout: ends the session on the server, clears the stored token and the user, then
 * replaces history with / (spec section 2).
 */
import { useEffect, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { LoadingView } from '../../components/ui/LoadingView.tsx';
import { logout } from '../../features/auth/api/logout.ts';
import { useSession } from '../session.tsx';

export default function LogoutRoute(): ReactElement {
  const { signOut } = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    let left = false;
    void logout().finally(() => {
      if (left) return;
      signOut();
      navigate('/', { replace: true });
    });
    return () => {
      left = true;
    };
  }, [signOut, navigate]);
  return <LoadingView />;
}
