# Bar chart of each benchmark's rate as a share of the library-free C limit (see scripts/bench).
set terminal pngcairo size 1000,520 font "DejaVu Sans,10"
set output out
set title "Requests per second as % of a C libfcgi responder behind the same nginx (same round)"
set style fill solid 0.8
set boxwidth 0.6
set yrange [0:*]
set ylabel "% of limit"
set xtics rotate by -25 left
set grid ytics
unset key
plot data using 1:2:xtic(3) with boxes lc rgb "#0a66d8", '' using 1:($2+3):(sprintf("%.0f%%", $2)) with labels
