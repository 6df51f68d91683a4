#!/bin/sh
# The proxies nginx believes about the client's address (docker-compose.yml runs this at
# the proxy container's start, from the nginx image's /docker-entrypoint.d/; the tests run
# it too): one "set_real_ip_from" per address or CIDR of NGINX_REAL_IP_FROM (commas or
# spaces between them), written to ADAPTOID_REAL_IP_CONF, which platform/nginx.conf
# includes.  Unset or empty: none, and the connection's own address is the client's.
set -euf
out="${ADAPTOID_REAL_IP_CONF:-/etc/nginx/adaptoid-real-ip.conf}"
ipv4='[0-9]{1,3}(\.[0-9]{1,3}){3}'
ipv6='[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*'
conf="# Written by platform/nginx-real-ip.sh from NGINX_REAL_IP_FROM."
for source in $(printf '%s' "${NGINX_REAL_IP_FROM:-}" | tr ',' ' '); do
    if ! printf '%s\n' "$source" | grep -Eq "^(($ipv4|$ipv6)(/[0-9]{1,3})?|unix:)\$"; then
        echo "NGINX_REAL_IP_FROM: '$source' is not an IP address or CIDR (e.g. 10.0.0.0/8)" >&2
        exit 1
    fi
    conf="$conf
set_real_ip_from $source;"
done
printf '%s\n' "$conf" > "$out"
