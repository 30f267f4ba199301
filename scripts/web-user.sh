# Sourced: the user and group nginx's workers run as when started by root (Debian's www-data),
# which is also the group given the worker's and the dev tenant's unix sockets (mode 660).
if id -u www-data >/dev/null 2>&1; then
  WEB_USER=www-data WEB_GROUP=www-data
else
  WEB_USER=nobody WEB_GROUP=nogroup
fi
export WEB_USER WEB_GROUP
