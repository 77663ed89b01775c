#!/bin/bash
KNOB=/proc/sys/kernel/sched_itmt_efficiency_first
F=/sys/kernel/debug/sched/features
modprobe emul_idle layout=4p8e power_model=1 pl1_mw=400000 pl2_mw=500000
for r in 1 2 3 4; do
	for m in off on onnowake walkonly; do
		case $m in
		off) echo 0 > $KNOB; echo XPACK_WAKE > $F; echo XPACK_USE > $F ;;
		walkonly) echo 1 > $KNOB; echo XPACK_WAKE > $F; echo NO_XPACK_USE > $F ;;
		on) echo 1 > $KNOB; echo XPACK_WAKE > $F; echo XPACK_USE > $F ;;
		onnowake) echo 1 > $KNOB; echo NO_XPACK_WAKE > $F ;;
		esac
		c0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
		t=$(hackbench -g 2 -l 100 2>&1 | awk '/^Time:/ { print $2 }')
		c1=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
		echo "mode=$m time=$t ctxt=$((c1 - c0))"
	done
done
echo 0 > $KNOB
exit 0
