// SPDX-License-Identifier: GPL-2.0
/*
 * emul_blk.c - an emulated block device whose completions come from
 * another CPU after a seeded random delay (the bench's io-qd1 scenario)
 *
 * The case behind it: in 2025, fio at queue depth 1 lost 35-50% of its
 * IOPS on eMMC, NVMe and SATA when menu erred deep, while null_blk showed
 * no difference. null_blk completes from an hrtimer on the submitting CPU,
 * so that CPU's next timer is the completion and every governor knows
 * exactly how long it will sleep. A real device completes with an
 * interrupt the waiting CPU's timers know nothing about, usually on
 * another CPU, which then wakes the waiting task with an IPI.
 *
 * This device does the same. Each request draws its service time,
 * uniformly from lat_min_us..lat_max_us, from a PRNG seeded with "seed"
 * (the same seed gives the same sequence of delays; writing the seed
 * parameter restarts it), and arms a pinned
 * hrtimer on the "interrupt" CPU irq_cpu (through an IPI when it is not
 * the submitting CPU, as a device's MSI targets its vector's CPU). The
 * timer ends the request in hardirq context there, as a completion
 * interrupt handler would. No data moves: reads leave the buffer as it
 * was, writes are dropped, which is all a latency bench needs.
 *
 * The default service time, 50..150 us, is an estimate of a consumer NVMe
 * SSD's 4 KiB random read at queue depth 1 (the 2025 report's ~10.8k IOPS
 * on NVMe is ~93 us per request, software included); an eMMC part is
 * several times slower (2355 IOPS: ~425 us).
 *
 * debugfs emul_blk/stats: requests, how many completed on another CPU
 * than the one that submitted them, and the service times drawn, summed.
 */

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

static int irq_cpu;
module_param(irq_cpu, int, 0444);
MODULE_PARM_DESC(irq_cpu, "CPU whose timer completes the requests, the device's interrupt CPU (default: 0)");

static unsigned int lat_min_us = 50;
module_param(lat_min_us, uint, 0444);
MODULE_PARM_DESC(lat_min_us, "Shortest service time, us (default: 50, 1..100000)");

static unsigned int lat_max_us = 150;
module_param(lat_max_us, uint, 0444);
MODULE_PARM_DESC(lat_max_us, "Longest service time, us (default: 150, lat_min_us..100000)");

static ulong seed = 1;
static int emul_blk_seed_set(const char *val, const struct kernel_param *kp);
static const struct kernel_param_ops emul_blk_seed_ops = {
	.set = emul_blk_seed_set,
	.get = param_get_ulong,
};
module_param_cb(seed, &emul_blk_seed_ops, &seed, 0644);
MODULE_PARM_DESC(seed, "Seed of the service times; writing it restarts their sequence (default: 1)");

static unsigned int size_mb = 256;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "Capacity in MiB (default: 256, 1..65536)");

#define EMUL_BLK_LAT_MAX_US	100000
#define EMUL_BLK_SIZE_MAX_MB	65536

/* One per request (the tag set's cmd_size). */
struct emul_blk_cmd {
	struct request *rq;
	struct hrtimer timer;
	call_single_data_t csd;
	unsigned int submit_cpu;
};

static struct {
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	int major;
	struct dentry *debugfs;
	/* The PRNG, drawn from under the lock (requests of several queues). */
	spinlock_t lock;
	struct rnd_state rnd;
	atomic64_t requests;
	atomic64_t remote;
	/* The service times drawn, summed: what a test of the seed compares. */
	atomic64_t service_ns;
} emul_blk = {
	/* Initialised here: the seed's setter takes it at load, before init. */
	.lock = __SPIN_LOCK_UNLOCKED(emul_blk.lock),
};

/*
 * A new seed restarts the sequence of service times from its first draw,
 * so that the bench gives every block of a round the same sequence.
 */
static int emul_blk_seed_set(const char *val, const struct kernel_param *kp)
{
	unsigned long flags, v;

	if (kstrtoul(val, 0, &v))
		return -EINVAL;
	spin_lock_irqsave(&emul_blk.lock, flags);
	seed = v;
	prandom_seed_state(&emul_blk.rnd, v);
	spin_unlock_irqrestore(&emul_blk.lock, flags);
	return 0;
}

static enum hrtimer_restart emul_blk_done(struct hrtimer *timer)
{
	struct emul_blk_cmd *cmd = container_of(timer, struct emul_blk_cmd, timer);

	if (smp_processor_id() != cmd->submit_cpu)
		atomic64_inc(&emul_blk.remote);
	blk_mq_end_request(cmd->rq, BLK_STS_OK);
	return HRTIMER_NORESTART;
}

static u64 emul_blk_service_ns(void)
{
	u32 span = lat_max_us - lat_min_us + 1, draw;
	unsigned long flags;
	u64 ns;

	spin_lock_irqsave(&emul_blk.lock, flags);
	draw = prandom_u32_state(&emul_blk.rnd);
	spin_unlock_irqrestore(&emul_blk.lock, flags);
	/* Uniform in lat_min_us..lat_max_us, at 1 ns resolution. */
	ns = (u64)lat_min_us * NSEC_PER_USEC +
	     (((u64)draw * span * NSEC_PER_USEC) >> 32);
	atomic64_add(ns, &emul_blk.service_ns);
	return ns;
}

/* On the interrupt CPU: arm its timer (the IPI's handler, or a direct call). */
static void emul_blk_arm(void *data)
{
	struct emul_blk_cmd *cmd = data;

	hrtimer_start(&cmd->timer, ns_to_ktime(emul_blk_service_ns()),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static blk_status_t emul_blk_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct emul_blk_cmd *cmd = blk_mq_rq_to_pdu(bd->rq);
	int cpu = READ_ONCE(irq_cpu);

	cmd->rq = bd->rq;
	blk_mq_start_request(bd->rq);
	atomic64_inc(&emul_blk.requests);
	/*
	 * queue_rq() may run with preemption on: cpu_online() and the IPI
	 * need a CPU that cannot go away underneath, and an offline
	 * interrupt CPU (its vector moved by hotplug) completes locally.
	 */
	preempt_disable();
	cmd->submit_cpu = smp_processor_id();
	if (cpu == cmd->submit_cpu || !cpu_online(cpu) ||
	    smp_call_function_single_async(cpu, &cmd->csd))
		emul_blk_arm(cmd);
	preempt_enable();
	return BLK_STS_OK;
}

static int emul_blk_init_request(struct blk_mq_tag_set *set, struct request *rq,
				 unsigned int hctx_idx, unsigned int numa_node)
{
	struct emul_blk_cmd *cmd = blk_mq_rq_to_pdu(rq);

	hrtimer_init(&cmd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	cmd->timer.function = emul_blk_done;
	INIT_CSD(&cmd->csd, emul_blk_arm, cmd);
	return 0;
}

static const struct blk_mq_ops emul_blk_mq_ops = {
	.queue_rq = emul_blk_queue_rq,
	.init_request = emul_blk_init_request,
};

static const struct block_device_operations emul_blk_fops = {
	.owner = THIS_MODULE,
};

static int emul_blk_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "requests %lld\n", atomic64_read(&emul_blk.requests));
	seq_printf(m, "remote_completions %lld\n", atomic64_read(&emul_blk.remote));
	seq_printf(m, "service_ns %lld\n", atomic64_read(&emul_blk.service_ns));
	seq_printf(m, "irq_cpu %d\n", irq_cpu);
	seq_printf(m, "lat_min_us %u\nlat_max_us %u\nseed %lu\n", lat_min_us, lat_max_us, seed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emul_blk_stats);

static int __init emul_blk_init(void)
{
	struct queue_limits lim = {
		.logical_block_size = SECTOR_SIZE,
		.physical_block_size = 4096,
		.io_min = 4096,
	};
	struct gendisk *disk;
	int ret;

	if (irq_cpu < 0 || irq_cpu >= nr_cpu_ids || !lat_min_us ||
	    lat_max_us < lat_min_us || lat_max_us > EMUL_BLK_LAT_MAX_US ||
	    !size_mb || size_mb > EMUL_BLK_SIZE_MAX_MB) {
		pr_err("emul_blk: irq_cpu, lat_min_us, lat_max_us or size_mb out of range\n");
		return -EINVAL;
	}
	/* The seed's sysfs file is there before init runs. */
	spin_lock_irq(&emul_blk.lock);
	prandom_seed_state(&emul_blk.rnd, seed);
	spin_unlock_irq(&emul_blk.lock);

	ret = register_blkdev(0, "emul_blk");
	if (ret < 0)
		return ret;
	emul_blk.major = ret;

	emul_blk.tag_set.ops = &emul_blk_mq_ops;
	emul_blk.tag_set.nr_hw_queues = 1;
	emul_blk.tag_set.queue_depth = 64;
	emul_blk.tag_set.numa_node = NUMA_NO_NODE;
	emul_blk.tag_set.cmd_size = sizeof(struct emul_blk_cmd);
	emul_blk.tag_set.flags = BLK_MQ_F_SHOULD_MERGE;
	ret = blk_mq_alloc_tag_set(&emul_blk.tag_set);
	if (ret)
		goto out_blkdev;

	disk = blk_mq_alloc_disk(&emul_blk.tag_set, &lim, NULL);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto out_tags;
	}
	disk->major = emul_blk.major;
	disk->first_minor = 0;
	disk->minors = 1;
	disk->fops = &emul_blk_fops;
	strscpy(disk->disk_name, "emulblk0", sizeof(disk->disk_name));
	set_capacity(disk, (sector_t)size_mb << (20 - SECTOR_SHIFT));
	ret = add_disk(disk);
	if (ret)
		goto out_disk;
	emul_blk.disk = disk;

	emul_blk.debugfs = debugfs_create_dir("emul_blk", NULL);
	debugfs_create_file("stats", 0444, emul_blk.debugfs, NULL, &emul_blk_stats_fops);
	return 0;

out_disk:
	put_disk(disk);
out_tags:
	blk_mq_free_tag_set(&emul_blk.tag_set);
out_blkdev:
	unregister_blkdev(emul_blk.major, "emul_blk");
	return ret;
}

static void __exit emul_blk_exit(void)
{
	debugfs_remove_recursive(emul_blk.debugfs);
	/* Drains the queue: every timer has fired before the tags go. */
	del_gendisk(emul_blk.disk);
	put_disk(emul_blk.disk);
	blk_mq_free_tag_set(&emul_blk.tag_set);
	unregister_blkdev(emul_blk.major, "emul_blk");
}

module_init(emul_blk_init);
module_exit(emul_blk_exit);

MODULE_DESCRIPTION("Emulated block device: completions from another CPU after a seeded random delay");
MODULE_LICENSE("GPL");
